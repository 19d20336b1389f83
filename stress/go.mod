module github.com/seed997/sluice/stress

go 1.26.0

require (
	github.com/anishathalye/porcupine v1.3.1
	github.com/seed997/sluice v0.0.0
)

require golang.org/x/sys v0.50.0 // indirect

// The harness always tests the engine beside it, with or without go.work.
replace github.com/seed997/sluice => ../

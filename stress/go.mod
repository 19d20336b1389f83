module github.com/seed997/sluice/stress

go 1.26.0

require (
	github.com/anishathalye/porcupine v1.3.1
	github.com/seed997/sluice v0.0.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/puzpuzpuz/xsync/v3 v3.5.1 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

// The harness always tests the engine beside it, with or without go.work.
replace github.com/seed997/sluice => ../

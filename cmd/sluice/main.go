// Command sluice holds sluice's command-line tools.
//
//	sluice replay < stream    decide a command stream, one allow/deny a line
//
// See DESIGN.md for the stream format.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

const usage = `usage: sluice <command>

commands:
  replay    read a command stream on standard input and print allow or deny
            for each request (format: capacity, window, count, then
            "request <client> <timestamp>" lines; one time unit is 1s,
            or another where the limit needs it, which changes no
            decision)
`

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "replay":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "sluice replay: unexpected argument %q\n", args[1])
			return 2
		}
		s, err := parseStream(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "sluice replay: %v\n", err)
			return 1
		}
		w := bufio.NewWriter(stdout)
		if err := s.replay(w); err != nil {
			fmt.Fprintf(stderr, "sluice replay: %v\n", err)
			return 1
		}
		if err := w.Flush(); err != nil {
			fmt.Fprintf(stderr, "sluice replay: %v\n", err)
			return 1
		}
		return 0
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "sluice: unknown command %q\n%s", args[0], usage)
	return 2
}

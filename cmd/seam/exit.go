package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/runtime"
)

// The exit statuses, the same for every command (README: Exit status).
const (
	// exitOK: the command did what it was asked, and any check passed.
	exitOK = 0
	// exitFailed: the check itself failed (verify found violations, a
	// run's outputs did not match, a bench row failed); the command has
	// printed why.
	exitFailed = 1
	// exitInput: bad usage or bad input (an unknown flag, a missing file,
	// a malformed archive or profile, a program lower refuses), or a file
	// seam could not write.
	exitInput = 2
	// exitBug: a bug in seam (a lowered program seam made that does not
	// verify, a panic).
	exitBug = 3
)

// exitError carries an exit status without another message: the command
// has already said what went wrong (verify's violations, run's mismatches).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// checkError is a check that failed, with the message main prints (the
// command's output did not say it already).
type checkError struct{ err error }

func (e checkError) Error() string { return e.err.Error() }

func (e checkError) Unwrap() error { return e.err }

// bugError is a failure seam itself caused, found by the command line: a
// program it made that does not verify, a panic it recovered.
type bugError struct {
	Msg string
	// Stack is where a panic happened ("" for a failed check).
	Stack string
}

func (e *bugError) Error() string {
	s := e.Msg + " (a bug in seam, please report it)"
	if e.Stack != "" {
		s += "\n" + e.Stack
	}
	return s
}

// exitStatus classifies an error by its type: a check that failed, a bug
// in seam, or else the usage's or the input's fault.
func exitStatus(err error) int {
	if err == nil {
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if errors.As(err, new(checkError)) {
		return exitFailed
	}
	if isBug(err) {
		return exitBug
	}
	return exitInput
}

// isBug reports the errors that are seam's fault, whatever their input.
func isBug(err error) bool {
	var (
		lowered *lower.BugError
		kernel  *kernels.PanicError
		plan    *runtime.PlanError
		parts   *runtime.PartsError
		bug     *bugError
	)
	return errors.As(err, &lowered) || errors.As(err, &kernel) || errors.As(err, &plan) || errors.As(err, &parts) || errors.As(err, &bug)
}

// where names a command for its errors, after main's "seam: ": "run: ".
func where(cmd *cobra.Command) string {
	if !cmd.HasParent() {
		return ""
	}
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ") + ": "
}

// guard makes every command of the tree under c turn a panic into a
// bugError (exit status 3), reported as seam's fault, rather than a crash;
// its argument and flag errors say how the command is used; and a command
// that only groups others (bench, export) refuses to run without one of
// them.
func guard(c *cobra.Command) {
	if c.HasParent() && c.HasSubCommands() && c.RunE == nil && c.Run == nil {
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			var names []string
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, sub.Name())
				}
			}
			if len(args) == 0 {
				cmd.SetOut(cmd.ErrOrStderr())
				_ = cmd.Help()
				return exitError{exitInput}
			}
			return fmt.Errorf("%sunknown command %q (want one of %s)", where(cmd), args[0], strings.Join(names, ", "))
		}
	}
	if valid := c.Args; valid != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := valid(cmd, args); err != nil {
				return fmt.Errorf("%s%w; usage: %s", where(cmd), err, cmd.UseLine())
			}
			return nil
		}
	}
	c.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return fmt.Errorf("%s%w (%s --help lists the flags)", where(cmd), err, cmd.CommandPath())
	})
	if run := c.RunE; run != nil {
		c.RunE = func(cmd *cobra.Command, args []string) (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = &bugError{Msg: fmt.Sprintf("seam %s panicked: %v", cmd.Name(), r), Stack: string(debug.Stack())}
				}
			}()
			return run(cmd, args)
		}
	}
	for _, sub := range c.Commands() {
		guard(sub)
	}
}

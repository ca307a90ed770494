package main

import (
	"bufio"
	"context"
	"io"
)

// lines reads what a command writes, a line at a time.
type lines struct{ ch chan string }

// newLines returns a reader of lines and the writer they come from;
// closing the writer ends the reader's goroutine.
func newLines() (*lines, *io.PipeWriter) {
	r, w := io.Pipe()
	l := &lines{ch: make(chan string, 64)}
	go func() {
		s := bufio.NewScanner(r)
		for s.Scan() {
			l.ch <- s.Text()
		}
		close(l.ch)
	}()
	return l, w
}

// next returns the next line, or "" when ctx ends first.
func (l *lines) next(ctx context.Context) string {
	select {
	case s := <-l.ch:
		return s
	case <-ctx.Done():
		return ""
	}
}

//go:build !unix

package hrc

import "time"

var clockStart = time.Now()

// cpuTime falls back to the wall clock where getrusage is missing.
func cpuTime() time.Duration { return time.Since(clockStart) }

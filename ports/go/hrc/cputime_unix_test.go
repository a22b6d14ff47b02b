//go:build unix

package hrc

import (
	"syscall"
	"time"
)

// cpuTime is this process's CPU time (user + system): unlike the wall clock it does not grow
// while other processes hold the cores, so growth ratios hold on a loaded machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

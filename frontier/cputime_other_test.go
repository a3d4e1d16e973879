//go:build !unix

package frontier

// processCPU is not measured on this platform; cpu-ns/op reads 0.
func processCPU() int64 { return 0 }

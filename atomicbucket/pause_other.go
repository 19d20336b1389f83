//go:build !amd64

package atomicbucket

func pause(int) {}

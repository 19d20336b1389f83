package atomicbucket

// pause executes the processor's spin-wait hint n times (n >= 1).
func pause(n int)

package atomicbucket

import "time"

// Status says what became of a request.
type Status uint8

const (
	// Denied: not enough tokens now; RetryAfter says when there will be.
	// It is the zero value, so a Decision nobody filled in admits nothing.
	Denied Status = iota
	// Allowed: the tokens were taken.
	Allowed
	// TooLarge: the cost exceeds the burst and can never succeed.
	TooLarge
	// Invalid: the cost is below 1; nothing was taken.
	Invalid
	// Evicted: the bucket was evicted by the sweeper; look the key up again.
	// A limiter never returns it to its callers.
	Evicted
	// OverCapacity: the key is new and the limiter holds its maximum number
	// of keys; the request is refused and counted (see sluice.WithMaxKeys).
	OverCapacity
)

func (s Status) String() string {
	switch s {
	case Denied:
		return "denied"
	case Allowed:
		return "allowed"
	case TooLarge:
		return "too-large"
	case Invalid:
		return "invalid"
	case Evicted:
		return "evicted"
	case OverCapacity:
		return "over-capacity"
	}
	return "unknown"
}

// Decision is the outcome of one request. It is returned by value: it is
// small, and a pointer would escape to the heap.
type Decision struct {
	Status Status
	// Remaining is the number of whole tokens left after the decision.
	Remaining int64
	// RetryAfter is, for Denied, the time until the requested tokens will be
	// there (if nobody else takes them first); zero otherwise.
	RetryAfter time.Duration
	// ResetAfter is the time until the bucket is full again.
	ResetAfter time.Duration
}

// OK reports whether the request was admitted.
func (d Decision) OK() bool { return d.Status == Allowed }

package monitor

// Stop reasons reported in Summary.Stopped and counted in a run's record
// ("stop/interrupted", ...).
const (
	StopExhausted   = "exhausted"    // nothing left to crawl
	StopMaxPages    = "max-pages"    // the page budget was fetched
	StopMaxDuration = "max-duration" // the time budget passed
	StopInterrupted = "interrupted"  // the crawl was cancelled (SIGINT)
	StopError       = "error"        // a fatal error
)

// Stopping is what a crawl knows about why it stopped; Reason names it.
type Stopping struct {
	Err         error // the fatal error, if any
	Exhausted   bool  // the frontier ran dry
	BudgetSpent bool  // the page budget is spent
	Interrupted bool  // the crawl's context was cancelled
	TimedOut    bool  // the time budget passed
}

// Reason is the stop reason of s, the first that holds in the order of
// Stopping's fields; StopExhausted when none does.
func (s Stopping) Reason() string {
	switch {
	case s.Err != nil:
		return StopError
	case s.Exhausted:
		return StopExhausted
	case s.BudgetSpent:
		return StopMaxPages
	case s.Interrupted:
		return StopInterrupted
	case s.TimedOut:
		return StopMaxDuration
	}
	return StopExhausted
}

package mailbox

import (
	"errors"
	"slices"
	"testing"
)

// TestMailbox posts, takes and closes in order and checks what each step
// leaves: the order of the functions, the signal, the refusal after Close.
func TestMailbox(t *testing.T) {
	m := New()
	var ran []int
	post := func(i int) bool { return m.Post(func() error { ran = append(ran, i); return nil }) }
	steps := []struct {
		name string
		do   func(t *testing.T)
	}{
		{"empty at first", func(t *testing.T) {
			if !m.Empty() || len(m.Take()) != 0 {
				t.Error("a new mailbox holds something")
			}
			select {
			case <-m.Posted():
				t.Error("signalled before any post")
			default:
			}
		}},
		{"three posts, one signal", func(t *testing.T) {
			for i := 1; i <= 3; i++ {
				if !post(i) {
					t.Fatalf("post %d refused", i)
				}
			}
			if m.Empty() {
				t.Error("empty after posts")
			}
			<-m.Posted()
			select {
			case <-m.Posted():
				t.Error("two signals for posts not taken")
			default:
			}
		}},
		{"take runs in order", func(t *testing.T) {
			for _, fn := range m.Take() {
				_ = fn()
			}
			if !slices.Equal(ran, []int{1, 2, 3}) || !m.Empty() {
				t.Errorf("ran %v, empty %v; want [1 2 3], true", ran, m.Empty())
			}
		}},
		{"open: Closed waits", func(t *testing.T) {
			select {
			case <-m.Closed():
				t.Error("Closed before Close")
			default:
			}
		}},
		{"closed refuses", func(t *testing.T) {
			m.Close(nil)
			if post(4) || !m.Empty() {
				t.Error("a closed mailbox took a post")
			}
		}},
		{"the first close's error stays", func(t *testing.T) {
			m.Close(errors.New("late"))
			<-m.Closed()
			if m.Err() != nil {
				t.Errorf("Err = %v, want the first Close's nil", m.Err())
			}
		}},
	}
	for _, s := range steps {
		t.Run(s.name, s.do)
	}
}

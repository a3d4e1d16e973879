package robots

import (
	"container/list"
	"sync"
)

// lru keeps the parsed records of the most recently used origins.
type lru struct {
	mu  sync.Mutex
	max int
	ll  *list.List // front: most recent; values are *lruItem
	m   map[string]*list.Element
}

type lruItem struct {
	key string
	r   *record
}

func newLRU(max int) *lru {
	return &lru{max: max, ll: list.New(), m: map[string]*list.Element{}}
}

func (l *lru) get(key string) (*record, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	el, ok := l.m[key]
	if !ok {
		return nil, false
	}
	l.ll.MoveToFront(el)
	return el.Value.(*lruItem).r, true
}

func (l *lru) put(key string, r *record) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if el, ok := l.m[key]; ok {
		el.Value.(*lruItem).r = r
		l.ll.MoveToFront(el)
		return
	}
	l.m[key] = l.ll.PushFront(&lruItem{key: key, r: r})
	for l.ll.Len() > l.max {
		old := l.ll.Back()
		l.ll.Remove(old)
		delete(l.m, old.Value.(*lruItem).key)
	}
}

func (l *lru) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ll.Len()
}

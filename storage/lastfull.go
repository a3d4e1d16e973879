package storage

import "time"

// LastFull returns when page id, whose record is prev, was last fetched
// with content (StatusFetched): prev's fetch if it was one, else the
// latest such fetch of its History, else when its content last changed
// (prev.ChangedAt; also when the history cannot be read). A WARC revisit
// record of a 304 refers to that fetch.
func (db *DB) LastFull(id uint64, prev *Page) time.Time {
	if prev.Status == StatusFetched {
		return prev.FetchedAt
	}
	if recs, err := db.History(id); err == nil {
		for i := len(recs) - 1; i >= 0; i-- {
			if recs[i].Status == StatusFetched {
				return recs[i].FetchedAt
			}
		}
	}
	return prev.ChangedAt
}

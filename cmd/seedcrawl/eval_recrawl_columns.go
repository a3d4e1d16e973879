package main

import (
	"fmt"
	"strings"
)

// recrawlColumns are the columns of `eval recrawl --csv`, in order, each
// with what it holds: the header row names them, and `eval recrawl -h`
// and README explain them. The names are a contract (scripts read them);
// a new column goes at the end.
var recrawlColumns = []struct{ name, doc string }{
	{"scheduler", "the crawl's scheduler (--schedulers)"},
	{"seed_algo", "the seed selector of cycles 2, 3, ... (--seed-algos)"},
	{"refresh_policy", "the refresh policy (--refresh-policies)"},
	{"cycle", "the cycle of seedcrawl run (1: the first crawl)"},
	{"epoch", "the test web's epoch the cycle crawled (cycle e+1 crawls epoch e)"},
	{"budget_share", "the share of the cycle's budget at which the row samples the curves (0.05 ... 1)"},
	{"fetches_at", "budget_share × the budget: the fetches after which pagerank, best_pagerank and new_share are taken"},
	{"pagerank", "cumulative true PageRank (of the epoch) of the distinct pages fetched by fetches_at"},
	{"best_pagerank", "the best possible pagerank: the sum of the largest true PageRank values of as many pages"},
	{"new_share", "the share of the epoch's new pages fetched by fetches_at"},
	{"new_pages", "the number of pages new in the epoch"},
	{"freshness", "after the cycle, the share of stored copies (pages with an ETag) that are the epoch's"},
	{"fetches", "page and sitemap requests the test web answered in the cycle, retries included, robots.txt not (the crawl summary's requests)"},
	{"requests", "every request the test web answered in the cycle, robots.txt included"},
	{"not_modified", "the 304 answers among them"},
	{"seconds", "the cycle's duration"},
	{"freshness_pagerank", "freshness weighted by the epoch's true PageRank"},
	{"seeds", "the cycle's seeds"},
	{"seeds_requested", "the seeds requested in the cycle"},
	{"seeds_requested_10", "the seeds requested in the first 10% of the budget"},
	{"refetches_10", "requests in the first 10% of the budget for pages fetched before the cycle"},
	{"new_found_10", "the epoch's new pages whose link was first read on a page requested in the first 10% of the budget, fetched or not"},
}

// recrawlColumnNames returns the header row of `eval recrawl --csv`.
func recrawlColumnNames() []string {
	names := make([]string, len(recrawlColumns))
	for i, c := range recrawlColumns {
		names[i] = c.name
	}
	return names
}

// recrawlColumnsHelp is the part of `eval recrawl -h` that explains the
// CSV columns.
func recrawlColumnsHelp() string {
	var b strings.Builder
	b.WriteString("\n--csv columns (one row per configuration, cycle and budget step; the columns from new_pages on\nare the cycle's and repeat on each of its rows):\n")
	for _, c := range recrawlColumns {
		fmt.Fprintf(&b, "  %-19s %s\n", c.name, c.doc)
	}
	return b.String()
}

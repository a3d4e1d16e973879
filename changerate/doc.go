// Package changerate estimates how often a page changes from what a crawler
// observed of it, and splits a refresh budget over pages by importance and
// change rate. Everything here is a pure function of its arguments.
//
// # Model
//
// Cho and Garcia-Molina, "Estimating frequency of change" (ACM TOIT 3(3),
// 2003): a page changes as a Poisson process of rate λ (changes per unit
// time, e.g. per day or per crawl cycle). A crawler does not see the
// changes, only what each access tells:
//
//   - whether the page changed since the previous access (ETag or content
//     differs), at regular intervals I (Naive, BiasReduced) or irregular
//     ones (MLE);
//   - the time of the last change, from Last-Modified or a sitemap's
//     lastmod (LastModifiedNaive, LastModified).
//
// The naive estimators count changes per unit of time and underestimate λ
// when a page changes more than once between accesses; the others correct
// for it.
//
// With few accesses per page, FitPrior and Prior.Rate pool the pages of a
// group (a host): empirical Bayes with a beta-binomial prior on the chance
// of a change between two accesses.
//
// Exposure (and Exposed, one access at a time) reads last-modified dates on
// the server's own clock (Date − Last-Modified), and counts the first
// access too: the age of a copy at a random moment is Exp(λ) for a
// stationary process, so one fetch already says something about λ. Its
// X changes over T time are the Poisson process's sufficient statistics;
// Gamma (FitGamma, Gamma.Estimate) is their conjugate prior, pooled per
// group.
//
// # Refresh allocation
//
// Cho and Garcia-Molina, "Effective page refresh policies for Web crawlers"
// (ACM TODS 28(4), 2003; first in "Synchronizing a database to improve
// freshness", SIGMOD 2000): a page of rate λ refreshed f times per unit
// time at regular intervals (fixed order) is fresh, i.e. equal to the live
// page, a share
//
//	F(λ, f) = (f/λ)·(1 − e^(−λ/f))
//
// of the time (Freshness). Given importance weights w_i and a budget of B
// refreshes per unit time, Optimal maximises Σ w_i·F(λ_i, f_i) subject to
// Σ f_i = B (and f_i ≤ a cap, e.g. once per crawl cycle). Uniform (f_i =
// B/N) and Proportional (f_i ∝ λ_i, which the paper shows is worse than
// uniform) are its known inferior baselines; ByScore allocates in
// proportion to any score, such as importance (w_i) or importance × change
// rate (w_i·λ_i).
//
// F averages freshness over continuous time with refreshes spread evenly
// through it. A crawler that refreshes in cycles and uses its copies when
// a cycle ends gains, from refetching page i, w_i times the chance that
// the page changed since its last fetch, StaleChance(λ_i, elapsed_i):
// there a page that changes faster than it can be refetched is worth the
// most, not nothing.
package changerate

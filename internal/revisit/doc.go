// Package revisit has the one rule by which seedcrawl run spaces out the
// refetches of URLs whose last answer rarely changes and left no copy to
// keep fresh: a redirect, a 404 or 410, a refusal (401, 403, 451), a URL
// robots.txt denies. Such a URL is refetched only every g cycles, each in
// the cycles of its own phase (Due, Phase), so the URLs one cycle found
// together come due spread over g cycles instead of all in the same one.
// The recrawl's revisit policy and planning (package recrawl) and the
// reads of a missing sitemap (package sitemap) use it, so a URL is due in
// the same cycles whichever of them asks.
package revisit

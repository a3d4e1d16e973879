// Package percent normalizes percent-encoding (RFC 3986 section 2.1) for
// the packages that compare URLs by their text: urlnorm's normal form,
// robots.txt rule matching (RFC 9309 section 2.2.2) and the test web's
// canonical URLs. In each the rule is the same: an escape of an
// unreserved byte is decoded, other escapes get upper-case hex, and each
// byte is kept or escaped by a Set that the caller chooses per component.
package percent

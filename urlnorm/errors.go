package urlnorm

import "errors"

var (
	// ErrParse reports a string that is not a valid absolute URL.
	ErrParse = errors.New("urlnorm: invalid URL")
	// ErrScheme reports a URL whose scheme is not http or https.
	ErrScheme = errors.New("urlnorm: scheme is not http or https")
	// ErrHost reports a URL whose host is empty or contains characters
	// no DNS name or IP literal has.
	ErrHost = errors.New("urlnorm: invalid host")
	// ErrSeed reports a seed URL that cannot be normalized (Seeds).
	ErrSeed = errors.New("urlnorm: bad seed URL")
	// ErrUserinfo reports a seed URL with userinfo, which Normalize drops.
	ErrUserinfo = errors.New("urlnorm: URL with userinfo")
	// ErrScope reports a scope specification that cannot be parsed.
	ErrScope = errors.New("urlnorm: invalid scope")
)

// Reasons a URL is rejected by Normalize or Resolve, as returned by Reason.
const (
	// ReasonBadURL: the string is not a valid URL (ErrParse).
	ReasonBadURL = "bad-url"
	// ReasonBadScheme: the scheme is not http or https (ErrScheme), e.g.
	// mailto: or javascript: links.
	ReasonBadScheme = "bad-scheme"
	// ReasonBadHost: the host is empty or not a DNS name or IP (ErrHost).
	ReasonBadHost = "bad-host"
)

// Reason maps an error from Normalize or Resolve to one of the Reason
// constants, for counting rejections; "" for nil and for other errors.
func Reason(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrScheme):
		return ReasonBadScheme
	case errors.Is(err, ErrHost):
		return ReasonBadHost
	case errors.Is(err, ErrParse):
		return ReasonBadURL
	}
	return ""
}

// Package version holds seedcrawl's version and the default User-Agent.
package version

// Version is seedcrawl's release version.
const Version = "0.1.0"

// ProjectURL is where site owners learn what seedcrawl is and how to reach its operators.
const ProjectURL = "https://github.com/seedcrawl/seedcrawl"

// UserAgent is the default User-Agent: product token, version and contact URL.
const UserAgent = "seedcrawl/" + Version + " (+" + ProjectURL + ")"

// Token is the product token matched against robots.txt User-agent lines.
const Token = "seedcrawl"

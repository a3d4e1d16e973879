package testweb

import "strconv"

// buildZoo adds the hostile preset's special hosts. Every zoo host's root is
// linked from home (a seed page) and every zoo page links back to home, so
// the zoo is reachable from the seeds and belongs to the core.
func buildZoo(b *siteBuilder, home uint32) {
	z := zoo{b: b, home: home}
	z.rules()
	noRobots := z.noRobots()
	z.robots503()
	z.robotsRedirect()
	secure := z.secure()
	z.redirects(noRobots, secure)
	z.plain(RoleSlow, "slow.test", 3)
	z.plain(RoleFlaky, "flaky.test", 4)
	z.plain(RoleRateLimit, "ratelimit.test", 3)
	z.drop()
	z.trap()
	z.big()
}

type zoo struct {
	b    *siteBuilder
	home uint32
}

func (z *zoo) host(role Role, name, scheme string, robots robotsMode, body string) uint32 {
	h := hostSpec{Host: Host{Name: name, Scheme: scheme, Role: role}, robots: robots, robotsBody: body}
	switch robots {
	case robotsFile:
		h.rules = parseRobots(body)
	case robotsError:
		h.disallowAll = true
	}
	return z.b.addHost(h)
}

// page adds an HTML page that links back to home.
func (z *zoo) page(h uint32, path string) uint32 {
	id := z.b.addNode(h, path, KindPage, 200, 0)
	z.b.link(id, z.home)
	return id
}

// root adds the host's root page, linked from home, with links to pages.
func (z *zoo) root(h uint32, to ...uint32) uint32 {
	r := z.b.addNode(h, "/", KindPage, 200, 0)
	z.b.link(z.home, r)
	for _, t := range to {
		z.b.link(r, t)
	}
	z.b.link(r, z.home)
	return r
}

// rules is rules.test: every rule of rulesRobots has a page that tests it.
func (z *zoo) rules() {
	h := z.host(RoleRules, "rules.test", "http", robotsFile, rulesRobots(z.b.s.crawlDelay))
	z.root(h,
		z.page(h, "/private/secret.html"),                  // Disallow /private/
		z.page(h, "/private/open/page.html"),               // Allow /private/open/ beats Disallow /private/
		z.b.resource(h, "/private/open/manual.pdf", ctPDF), // Allow /private/open/ (14) beats /*.pdf$ (7)
		z.b.resource(h, "/docs/report.pdf", ctPDF),         // /*.pdf$ (7) beats Allow /docs/ (6)
		z.b.resource(h, "/docs/report.pdf?v=2", ctPDF),     // $ anchors: allowed
		z.page(h, "/docs/guide.html"),                      // Allow /docs/
		z.page(h, "/search?q=web"),                         // allowed
		z.page(h, "/search?q=web&sort=date"),               // Disallow /search*sort=
	)
}

func (z *zoo) noRobots() uint32 {
	h := z.host(RoleNoRobots, "norobots.test", "http", robotsMissing, "")
	z.b.s.hosts[h].files = map[string]string{"/robots-for-robotsredirect.txt": redirectedRobots}
	b := z.page(h, "/b.html")
	z.root(h, z.page(h, "/a.html"), b)
	return b
}

func (z *zoo) robots503() {
	h := z.host(RoleRobots503, "robots503.test", "http", robotsError, "")
	z.root(h, z.page(h, "/x.html"))
}

func (z *zoo) robotsRedirect() {
	h := z.host(RoleRobotsRedirect, "robotsredirect.test", "http", robotsRedirect, "")
	spec := &z.b.s.hosts[h]
	spec.robotsTo = "http://norobots.test/robots-for-robotsredirect.txt"
	spec.rules = parseRobots(redirectedRobots)
	z.root(h, z.page(h, "/hidden/page.html"), z.page(h, "/shown.html"))
}

// secure is secure.test, served over https; its http root answers 301.
func (z *zoo) secure() uint32 {
	h := z.host(RoleSecure, "secure.test", "https", robotsFile, allowAllRobots)
	r := z.root(h, z.page(h, "/1.html"), z.page(h, "/2.html"))
	alt := z.b.addNode(h, "/", KindRedirect, 301, flagAltScheme)
	z.b.redirect(alt, r, 301)
	return alt
}

// redirects is redirects.test: every redirect code, a four-hop chain with a
// host-relative Location, a cross-host redirect, a loop, 404 and 410, and a
// link to the http URL of the https-only host.
func (z *zoo) redirects(crossTarget, httpSecure uint32) {
	b := z.b
	h := z.host(RoleRedirects, "redirects.test", "http", robotsFile, allowAllRobots)
	var entries []uint32
	for _, code := range []int{301, 302, 307, 308} {
		c := strconv.Itoa(code)
		r := b.addNode(h, "/r/"+c, KindRedirect, code, 0)
		b.redirect(r, z.page(h, "/target/"+c+".html"), code)
		entries = append(entries, r)
	}
	end := z.page(h, "/target/chain.html")
	c4 := b.addNode(h, "/chain/4", KindRedirect, 307, 0)
	b.redirect(c4, end, 307)
	c3 := b.addNode(h, "/chain/3", KindRedirect, 302, 0)
	b.redirect(c3, c4, 302)
	c2 := b.addNode(h, "/chain/2", KindRedirect, 301, flagRelLocation)
	b.redirect(c2, c3, 301)
	c1 := b.addNode(h, "/chain/1", KindRedirect, 301, 0)
	b.redirect(c1, c2, 301)
	away := b.addNode(h, "/away", KindRedirect, 302, 0)
	b.redirect(away, crossTarget, 302)
	la := b.addNode(h, "/loop/a", KindRedirect, 301, 0)
	lb := b.addNode(h, "/loop/b", KindRedirect, 301, 0)
	b.redirect(la, lb, 301)
	b.redirect(lb, la, 301)
	entries = append(entries, c1, away, la,
		b.addNode(h, "/missing.html", KindGone, 404, 0),
		b.addNode(h, "/removed.html", KindGone, 410, 0),
		httpSecure)
	z.root(h, entries...)
}

// plain adds a host of n+1 ordinary pages whose role is a server behaviour.
func (z *zoo) plain(role Role, name string, n int) {
	h := z.host(role, name, "http", robotsFile, allowAllRobots)
	var ps []uint32
	for i := 1; i <= n; i++ {
		ps = append(ps, z.page(h, "/"+strconv.Itoa(i)+".html"))
	}
	for i, p := range ps {
		z.b.link(p, ps[(i+1)%len(ps)])
	}
	z.root(h, ps...)
}

func (z *zoo) drop() {
	h := z.host(RoleDrop, "drop.test", "http", robotsFile, allowAllRobots)
	z.root(h,
		z.b.addNode(h, "/1.html", KindDrop, 200, 0),
		z.b.addNode(h, "/2.html", KindDrop, 200, 0))
}

func (z *zoo) trap() {
	h := z.host(RoleTrap, "trap.test", "http", robotsFile, allowAllRobots)
	z.root(h,
		z.b.addNode(h, trapCalendarStart, KindTrap, 200, 0),
		z.b.addNode(h, trapDeepStart, KindTrap, 200, 0))
}

func (z *zoo) big() {
	h := z.host(RoleBig, "big.test", "http", robotsFile, allowAllRobots)
	z.root(h,
		z.b.addNode(h, "/huge.html", KindHuge, 200, 0),
		z.b.addNode(h, "/bomb.html", KindBomb, 200, 0),
		z.page(h, "/small.html"))
}

// Trap entry points on trap.test.
const (
	trapCalendarStart = "/calendar/2025/01/"
	trapDeepStart     = "/deep/"
)

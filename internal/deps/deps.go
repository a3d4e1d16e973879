package deps

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/PuerkitoBio/goquery"
	_ "github.com/gocolly/colly/v2"
	_ "github.com/nlnwa/whatwg-url/url"
	_ "github.com/temoto/robotstxt"
	_ "go.etcd.io/bbolt"
	_ "golang.org/x/net/html"
	_ "golang.org/x/net/idna"
	_ "golang.org/x/net/publicsuffix"
	_ "golang.org/x/sync/singleflight"
	_ "gonum.org/v1/plot"
	_ "gonum.org/v1/plot/plotter"
	_ "gonum.org/v1/plot/vg/draw"
	_ "gopkg.in/yaml.v3"
)

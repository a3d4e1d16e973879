// Package chart renders the figures of seedcrawl's evaluations (sim, eval
// seeds, compare) as PNG, SVG or PDF, the format chosen by the file's
// extension.
//
// The figures are meant to go into a paper as they are:
//
//   - Text is Liberation Sans, the font gonum/plot ships. In SVG every glyph
//     is drawn as a path by default, so the figure looks the same in every
//     viewer and converter, including those that ignore CSS @font-face
//     (librsvg's rsvg-convert, Inkscape); SVGFontFace instead embeds the
//     font file as base64 in an @font-face rule and keeps the text
//     selectable, for browsers. PDF draws outlines too (gonum's PDF backend
//     encodes text as WinAnsi, which has no "−" and garbles "×"); PNG
//     rasterises the font.
//   - Series are told apart by colour, line dash and marker together (see
//     StyleOf): Paul Tol's colour-blind-safe "muted" palette plus black (ten
//     colours), four dash patterns and twelve marker shapes; any two of the
//     first 60 series differ in colour or marker. Reference series (an upper
//     bound) are grey and dashed, without markers.
//   - The legend sits in its own column right of the panels and never
//     covers a curve.
//   - Tick labels say what they mean: integers as integers with thousands
//     grouped ("2,500", never "2500.00"), fractions with as many decimals as
//     the tick step needs, log axes labelled at powers of ten (and at 2 and 5
//     when the axis spans less than two decades).
//   - A figure has one or more panels stacked over one shared x axis.
//     Crawl builds the figure sim and compare draw: cumulative PageRank
//     against pages downloaded, the upper bound U(k), and a lower panel that
//     spreads curves which lie on top of one another in the upper one (the
//     difference to a baseline such as breadth-first, or the share of U(k)).
package chart

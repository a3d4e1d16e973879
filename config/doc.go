// Package config holds every setting of a crawl in one Config struct, with
// documented defaults (Default), a YAML or TOML file loader (Load) that
// rejects unknown keys and bad values with an error naming the key and its
// file:line, and command-line flags bound to the same settings
// (Config.RegisterFlags) that override the file (Overlay).
//
// A problem with a setting is a *KeyError that says where its value came
// from in the user's terms: "--workers: ..." for a flag, "config file
// crawl.yaml:3: workers: ..." for a key of a file. Validate knows only the
// keys; Origins (from LoadOrigins and AddFlags) puts the place back
// (Origins.Locate).
//
// A setting's file key and its flag name are the same string, so
// `max-pages: 500` in seedcrawl.yaml, `max-pages = 500` in seedcrawl.toml and
// `--max-pages 500` on the command line mean the same thing. Files are flat:
// one key per setting, no tables or nested maps. Durations are Go durations
// ("1s", "250ms", "24h"); sizes take an optional unit ("10MiB", "512KiB",
// "1000"); lists are YAML sequences or TOML arrays (a single string is a list
// of one).
//
// The package imports nothing from the rest of seedcrawl: cmd/seedcrawl maps a
// Config onto the options of the packages it wires together.
package config

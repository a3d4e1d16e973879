package graph

import "slices"

func sortSlice(a []uint32) { slices.Sort(a) }

package pt2_test

import "flag"

var jsonDir = flag.String("json-dir", "", "write the benchmarks' model.json files to this folder")

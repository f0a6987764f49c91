//go:build !unix

package main

func capAddressSpace() {}

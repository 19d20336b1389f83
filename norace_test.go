//go:build !race

package sluice

const raceEnabled = false

//go:build race

package sluice

const raceEnabled = true

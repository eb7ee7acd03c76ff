package nofuzz

import "testing"

func TestNothing(t *testing.T) {}

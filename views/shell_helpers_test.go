package views

import (
	"testing"
)

var _ = testing.Verbose

package fix

import (
	"math/big"
	"testing"
)

func bigTarget(t *testing.T, n *big.Int) {}

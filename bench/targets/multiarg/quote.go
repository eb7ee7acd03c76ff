// Package multiarg prices shipping orders from several typed inputs.
//
// Bug: an express order to a remote country ("NZ") of at least 400 units with
// a discount of at least 25% stacks the bulk rebate on the discount and panics
// on the negative total. All four arguments must be right at once. go test
// -fuzz mutates one argument per step, integers by at most ±100, floats by
// small steps, and has no comparison guidance for the two-letter country code,
// so it needs luck on each condition; an engine that mutates several
// arguments and reads compare operands gets there directly.
package multiarg

import (
	"errors"
	"fmt"
)

const (
	unitPrice  = 2.50
	expressFee = 20.0
	remoteFee  = 45.0
	bulkQty    = 400
)

var errBadQty = errors.New("multiarg: quantity must be in 1..1000000")

// Quote returns the price of an order.
func Quote(qty int, country string, express bool, discount float64) (float64, error) {
	if qty <= 0 || qty > 1_000_000 {
		return 0, errBadQty
	}
	if !(discount >= 0 && discount <= 0.9) {
		return 0, fmt.Errorf("multiarg: discount %v out of range", discount)
	}
	if len(country) != 2 {
		return 0, fmt.Errorf("multiarg: country %q is not a two-letter code", country)
	}
	total := float64(qty) * unitPrice * (1 - discount)
	if express {
		total += shipping(country)
		if country == "NZ" && qty >= bulkQty && discount >= 0.25 {
			// The bulk rebate was meant for standard shipping only.
			total -= float64(qty) * unitPrice
		}
	}
	if total < 0 {
		panic("BUG multiarg: negative total for remote express bulk order")
	}
	return total, nil
}

func shipping(country string) float64 {
	if country == "NZ" || country == "AU" {
		return remoteFee
	}
	return expressFee
}

package viewtest

import (
	"sync/atomic"

	"paydash/backend"
)

const ActionTip backend.ActionName = "test_tip_link"

// TipLose is how many answers of the tip's send are still to be lost
// (the request reaches the service, its answer does not come back).
var TipLose atomic.Int32

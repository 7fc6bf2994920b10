package v2

// MaxAnswerBytes is the largest answer a client reads.
const MaxAnswerBytes = maxBodyBytes

// SetAnswerLimit makes c read answers of at most n bytes, so that a test of
// the limit need not send and read 32 MiB under the race detector.
func SetAnswerLimit(c *Client, n int64) { c.answerLimit = n }

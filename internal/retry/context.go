package retry

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"strings"
)

type nonceKey struct{}

type callerRetriesKey struct{}

// MaxNonce is the longest nonce Discord accepts on a message create.
const MaxNonce = 25

// Nonce derives a message nonce (MaxNonce characters, letters and digits)
// from key, an effect's ID of any length: the same key gives the same nonce,
// different keys different nonces (a 125-bit hash).
func Nonce(key string) string {
	sum := sha256.Sum256([]byte(key))
	s := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:])
	return strings.ToLower(s[:MaxNonce])
}

// WithNonce returns ctx carrying nonce for the message create made under
// it: the transport sends it with enforce_nonce, so that Discord answers a
// repeated create (a retry, a copy applied after its client gave up) with
// the message already created. Only one create may be made under one
// nonce: a second would be answered with the first's message.
func WithNonce(ctx context.Context, nonce string) context.Context {
	return context.WithValue(ctx, nonceKey{}, nonce)
}

// NonceFrom returns the nonce WithNonce put in ctx, or "".
func NonceFrom(ctx context.Context) string {
	s, _ := ctx.Value(nonceKey{}).(string)
	return s
}

// WithoutTransportRetries returns ctx marked so that the transport below
// (discordgo) retries nothing on its own: a 429 or a 5xx is returned at
// once, for the caller's Policy to see and schedule.
func WithoutTransportRetries(ctx context.Context) context.Context {
	return context.WithValue(ctx, callerRetriesKey{}, true)
}

// TransportRetries reports whether the transport may retry the requests
// made under ctx itself (false once WithoutTransportRetries marked it).
func TransportRetries(ctx context.Context) bool {
	v, _ := ctx.Value(callerRetriesKey{}).(bool)
	return !v
}

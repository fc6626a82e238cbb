package outbox

// CodeTooManyEdits is Discord's refusal to edit a message older than an
// hour too many times (30046): the edit is posted as a new message.
const CodeTooManyEdits = 30046

package outbox

// CodeTooManyEdits is Discord's refusal to edit a message older than an
// hour too many times (30046): the edit is posted as a new message.
const CodeTooManyEdits = 30046

// CodeArchivedThread is Discord's refusal of an operation on an archived
// thread (50083): a ping deleted there is left, which is done.
const CodeArchivedThread = 50083

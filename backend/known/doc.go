// Package known remembers the saved card tokens paydash knows, between
// runs, per service and merchant.
//
// # Why
//
// The payment service's v2 interface can read a token by its id but cannot
// list tokens. The Tokens tab therefore lists the tokens paydash has come
// across: those used or made by a payment it read (SeenInPayment), those it
// created (Created), and those looked up by id (LookedUp). This package
// keeps that list, in memory and in a small JSON file.
//
// # Where
//
// The caller chooses the file; the dashboard puts it beside the action
// journal as known-tokens.json. Tokens are keyed by service (the host of
// the service's base URL, e.g. "sandbox.local" or "pay.example.com") and
// merchant id, so one file serves every service and merchant. The file is
// written 0600 (its parent directory is created 0700 when missing): it
// names tokens and payments, never a secret. Save also creates
// "<file>.lock" beside it (an empty file used only for locking; leaving it
// there is harmless), and temporary files ".<file>.tmp-*" that exist only
// while a save runs.
//
// # Format
//
// One JSON document, indented, with the tokens of each merchant newest
// first:
//
//	{
//	  "version": 1,
//	  "services": {
//	    "pay.example.com": {
//	      "M-1001": {
//	        "tokens": [
//	          {
//	            "id": "tok_42",
//	            "title": "4111 11•• •••• 1111",
//	            "status": "Active",
//	            "expires": "2029-12-31T00:00:00Z",
//	            "firstSeen": "2026-11-21T10:00:00Z",
//	            "lastSeen": "2026-11-22T08:30:00Z",
//	            "source": "lookedUp",
//	            "payments": ["43149012", "43149010"]
//	          }
//	        ],
//	        "forgotten": [
//	          {"id": "tok_7", "at": "2026-11-22T08:31:00Z"}
//	        ]
//	      }
//	    }
//	  }
//	}
//
// "title", "status", "expires", "payments" and "forgotten" are left out
// when empty. "source" is "seenInPayment", "created" or "lookedUp". Times
// are RFC 3339 in UTC. "forgotten" records the tokens Forget removed, so
// that a copy of them still held by another paydash does not bring them
// back (see below). Fields this version does not know are ignored; a file
// of a later version is refused (ErrVersion), never overwritten.
//
// # Merge rule
//
// Note merges a note into the entry it already has for the token, and Save
// merges the file's entries with the store's by the same rule. Of two
// entries for one token, the "newer" one is the note being made, or in a
// file merge the one with the later LastSeen (the store's own on a tie):
//
//   - FirstSeen is the earlier of the two, LastSeen the later;
//   - Title, Status and Expires are the newer entry's when it has them
//     (non-empty, non-zero), else the older one's: a payment, which tells
//     no status, never erases the status a lookup found;
//   - Source is the stronger of the two, Created > LookedUp >
//     SeenInPayment: it says the most paydash has had to do with the token
//     (having created it beats having seen it in a payment), whatever the
//     order in which the notes came;
//   - Payments are the newer entry's, then the older one's not already
//     listed: newest first, without duplicates, at most MaxPayments.
//
// LastSeen moves at most once per LastSeenResolution: re-reading the same
// payments every few seconds tells the store nothing new, so Note reports
// no change and Save does not rewrite the file.
//
// Forget removes a token and records when; an entry of that token last
// seen at or before that time is dropped from every merge, so a Forget
// spreads to the file and to the other paydash processes that share it.
// A token noted again after it was forgotten is known again. Forget
// records are kept for ForgetFor, at most MaxForgotten per merchant.
//
// # Bounds
//
//   - token ids and payment ids: 1 to MaxIDLen bytes of valid UTF-8
//     without control characters; Note refuses a token whose id is not
//     (it returns false) and drops payment ids that are not;
//   - at most MaxTokens tokens per service and merchant: beyond that the
//     least recently seen are dropped;
//   - at most MaxPayments payment ids per token (the newest);
//   - Title at most MaxTitleLen bytes, Status at most MaxStatusLen bytes
//     (cut at a character boundary);
//   - the file at most MaxFileSize bytes. Open and Save refuse to read a
//     larger file (ErrTooLarge) and leave it untouched: the store starts
//     empty and works in memory, but Save keeps failing, writing nothing,
//     until the file is moved away or shrunk. Save never writes a larger
//     file: if the tokens would not fit, the least recently seen ones,
//     across all services and merchants, are dropped until they do.
//
// # Damaged files
//
// A file that cannot be parsed must not stop paydash: Open moves it aside
// to "<file>.corrupt-<UTC timestamp>" and returns a usable, empty Store
// together with a *CorruptError saying so. Save does the same if it finds
// the file damaged when it re-reads it, and then writes its tokens. A file
// is never overwritten unless it was read whole; Open and Save never
// delete one.
//
// # Links, pipes and devices
//
// The file and "<file>.lock" are opened, replaced and moved aside only as
// regular files, never through a symbolic link (backend/safefile). When
// the path is a symbolic link, Open does not read through it and Save does
// not write through it: neither the link nor the file it names is read,
// renamed, locked or replaced, no lock file is made beside either, and the
// error (wrapping *safefile.NotRegularError) says what the path is, "…
// is a symbolic link to …". A named pipe, a device, a socket or a
// directory there is refused the same way (a pipe without waiting on its
// open). The store then works in memory, as for any other read error.
//
// # Sharing the file
//
// Two paydash processes (two terminals) may use the same file. The store
// does not keep the file locked (the journal does; this store must not
// stop a second viewer). Instead Save, under an exclusive advisory lock on
// "<file>.lock" held only while it runs (waiting up to 5 seconds for
// another paydash's Save to finish), re-reads the file, merges its entries
// with the store's by the rule above, writes the result to a temporary
// file in the same directory, syncs it, renames it over the file, and
// unlocks. No process loses another's tokens, and the store then also
// holds the tokens the others saved. On systems without flock (Windows,
// Plan 9, ...) there is no lock: each write is still atomic, but two
// processes saving at the same instant may lose one save's new tokens.
package known

-- Admit cards (issue 18, docs/decisions/0154): issuing one stamps a new admit-card version on the
-- registration; the card's QR carries a token signed with the server's admit-card key naming the
-- registration, its roll number and that version. Moving or cancelling the candidate, or issuing
-- again, makes an older card's token "revoked" at the verify screen.
alter table registrations add column admit_card_version integer not null default 0;
alter table registrations add column admit_card_issued_at timestamptz;

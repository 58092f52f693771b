-- Issue 23 / docs/decisions/0100: a refresh-token family may be bound to the browser's DPoP
-- key (the RFC 7638 thumbprint of its public key). A bound family refreshes only with a proof
-- signed by that key; families made without a proof (API clients) stay unbound.
alter table refresh_token_families add column dpop_jkt text;

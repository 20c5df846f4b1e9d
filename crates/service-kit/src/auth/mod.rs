//! Bearer-token authentication (JWKS / dev secret) and scopes.

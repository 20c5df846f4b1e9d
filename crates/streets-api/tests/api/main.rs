//! streets-api over real HTTP, against SQLite and (when reachable) PostgreSQL with PostGIS.

mod helpers;
mod import;
mod stack;
mod streets;

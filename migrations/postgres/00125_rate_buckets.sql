-- +goose Up
-- Token buckets of the API's request limits, shared by every process that
-- serves the API, so N replicas allow one token's burst, not N of them.
-- bucket names it ("token:ID"); tokens is what the bucket held at
-- at_us (microseconds since the Unix epoch); each request refills it for
-- the time since and takes one in a single statement, which records in
-- taken whether there was one to take. UNLOGGED: a request's commit does
-- not wait for a WAL flush, and after a crash the buckets start full,
-- which is harmless.
CREATE UNLOGGED TABLE rate_buckets (
    bucket text PRIMARY KEY,
    tokens double precision NOT NULL,
    at_us  bigint NOT NULL,
    taken  integer NOT NULL
);

-- +goose Down
DROP TABLE rate_buckets;

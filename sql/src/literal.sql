-- bloomsketch_literal: the type an untyped string literal takes in calls to
-- the three sketch types' functions.  An untyped literal ('alice') needs an
-- overload of its own, since anyelement cannot resolve an unknown-type
-- literal.  A string-category type with no casts into it, it is chosen only
-- by an untyped literal or parameter, so every typed value, citext
-- included, reaches the anyelement functions (which refuse citext).  It
-- borrows text's I/O functions, and its values are hashed as text.  (0.1.0
-- had text overloads instead, which PostgreSQL then picked for citext too,
-- through citext's implicit cast to text: upgrade_0.1.0.sql drops them.)

-- @since 0.2.0
CREATE TYPE bloomsketch_literal;
CREATE FUNCTION bloomsketch_literal_in(cstring) RETURNS bloomsketch_literal
	AS 'textin' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomsketch_literal_in(cstring) IS
	'input function of bloomsketch_literal (the text input function)';
CREATE FUNCTION bloomsketch_literal_out(bloomsketch_literal) RETURNS cstring
	AS 'textout' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomsketch_literal_out(bloomsketch_literal) IS
	'output function of bloomsketch_literal (the text output function)';
CREATE FUNCTION bloomsketch_literal_recv(internal) RETURNS bloomsketch_literal
	AS 'textrecv' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomsketch_literal_recv(internal) IS
	'binary input function of bloomsketch_literal (the text one)';
CREATE FUNCTION bloomsketch_literal_send(bloomsketch_literal) RETURNS bytea
	AS 'textsend' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomsketch_literal_send(bloomsketch_literal) IS
	'binary output function of bloomsketch_literal (the text one)';
CREATE TYPE bloomsketch_literal (
	INPUT = bloomsketch_literal_in,
	OUTPUT = bloomsketch_literal_out,
	RECEIVE = bloomsketch_literal_recv,
	SEND = bloomsketch_literal_send,
	LIKE = text,
	CATEGORY = 'S'
);
COMMENT ON TYPE bloomsketch_literal IS
	'the type an untyped string literal takes in bloomsketch calls; hashed as text';

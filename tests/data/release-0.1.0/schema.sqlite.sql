-- The schema release 0.1.0 created (SQLAlchemy create_all of its models), sqlite.
-- Made from facilitator/store/models.py of 0.1.0; never edit: upgrades start here.

CREATE TABLE banks (
	id INTEGER NOT NULL, 
	name VARCHAR(200) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name)
);

CREATE TABLE games (
	id INTEGER NOT NULL, 
	name VARCHAR(200) NOT NULL, 
	created_at DATETIME NOT NULL, 
	settings JSON NOT NULL, 
	questions JSON NOT NULL, 
	seq INTEGER NOT NULL, 
	over BOOLEAN NOT NULL, 
	winner VARCHAR(200), 
	watch_code VARCHAR(40) NOT NULL, 
	timer JSON NOT NULL, 
	timer_deadline DOUBLE, 
	exchange_requests JSON NOT NULL, 
	bank_name VARCHAR(200), 
	PRIMARY KEY (id), 
	UNIQUE (watch_code)
);

CREATE INDEX ix_games_timer_deadline ON games (timer_deadline);

CREATE TABLE secrets (
	name VARCHAR(40) NOT NULL, 
	hash VARCHAR(300) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (name)
);

CREATE TABLE actions (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	action JSON NOT NULL, 
	client_id VARCHAR(64), 
	sent_by VARCHAR(20) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (game_id, seq), 
	UNIQUE (game_id, client_id), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);

CREATE TABLE bank_questions (
	id INTEGER NOT NULL, 
	bank_id INTEGER NOT NULL, 
	qid VARCHAR(200) NOT NULL, 
	author VARCHAR(200) NOT NULL, 
	type VARCHAR(10) NOT NULL, 
	text TEXT NOT NULL, 
	answer TEXT NOT NULL, 
	notes TEXT NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (bank_id, qid), 
	FOREIGN KEY(bank_id) REFERENCES banks (id) ON DELETE CASCADE
);

CREATE INDEX ix_bank_author_type ON bank_questions (bank_id, author, type);

CREATE TABLE join_codes (
	code VARCHAR(16) NOT NULL, 
	game_id INTEGER NOT NULL, 
	team INTEGER NOT NULL, 
	PRIMARY KEY (code), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);

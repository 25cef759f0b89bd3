/*
 * db_schema: the version of the database's schema that this wheelarch
 * writes (PRAGMA user_version).  db_open (db.h) upgrades an older database
 * to it and refuses a newer one; docs/database.md documents each version.
 */
#ifndef WHEELARCH_DB_SCHEMA_H
#define WHEELARCH_DB_SCHEMA_H

#define DB_SCHEMA_VERSION 11

#endif

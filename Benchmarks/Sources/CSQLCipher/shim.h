// SQLCipher's sqlite3.h, with its encryption API (sqlite3_key) declared.
#define SQLITE_HAS_CODEC 1
#include <sqlcipher/sqlite3.h>

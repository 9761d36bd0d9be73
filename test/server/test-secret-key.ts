// The secret key test services are given (createServer's `secretKey`, `passmint serve`'s PASSMINT_SECRET_KEY): a
// service without one stores no secret (409 secret-key-missing), and every process on one database must share it.
export const TEST_SECRET_KEY = 'FqJd7G58gKKxCfaluczOtyHep59eXiK8DD6PA7/ThAM=';

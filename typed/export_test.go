package typed

// StdPackage is stdPackage, for the external tests.
var StdPackage = stdPackage

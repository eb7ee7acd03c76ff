package lsp

// Fuzzing from the editor runs through the driver package's Fuzz (the event
// stream as values, no text scraping). Until it exists the fuzz command
// answers with an error that says so.

func (s *Server) fuzz(key testKey, _ string) (any, error) {
	return nil, invalidParams("fuzzbox.fuzz: fuzzing from the editor needs driver.Fuzz, which this build does not have yet")
}

package hrc

func loadIntentTable(name string) error { return nil }

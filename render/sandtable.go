package render

type sandSet struct{}

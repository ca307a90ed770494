package client

type discoveryState struct{}

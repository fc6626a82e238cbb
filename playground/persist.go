package playground

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"sandtable/storage"
)

// The stand-in's state lives in the playground database beside the bot's games, in the store's
// playground repository (storage.Tx.Playground): the state without file bytes under
// storage.PlaygroundState, and each attachment's bytes once under storage.PlaygroundFile plus its
// attachment ID (attachments never change).

// load reads the saved state and files; a new database has neither (nil, nil, nil).
func (p *Playground) load() ([]byte, map[string][]byte, error) {
	var state []byte
	files := map[string][]byte{}
	err := p.opts.Store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		if state, err = tx.Playground().Get(storage.PlaygroundState); err != nil {
			if errors.Is(err, storage.ErrNotFound) {
				state = nil
				return nil
			}
			return err
		}
		return tx.Playground().Each(storage.PlaygroundFile, func(key string, data []byte) error {
			files[strings.TrimPrefix(key, storage.PlaygroundFile)] = append([]byte(nil), data...)
			return nil
		})
	})
	if err != nil {
		return nil, nil, fmt.Errorf("playground: reading the saved playground from %s: %w", p.opts.Config.Playground.Database, err)
	}
	if state == nil {
		return nil, nil, nil
	}
	for id := range files {
		p.saved[id] = true
	}
	return state, files, nil
}

// save writes the stand-in's state if it changed since the last save, in one transaction:
// new attachments, the state, and the removal of attachments no message holds any more.
func (p *Playground) save() error {
	state, files, err := p.fake.ExportStateSplit()
	if err != nil {
		return err
	}
	p.mu.Lock()
	same := bytes.Equal(state, p.lastState)
	saved := p.saved
	p.mu.Unlock()
	if same {
		return nil
	}
	var added, removed []string
	err = p.opts.Store.Update(context.Background(), func(tx storage.Tx) error {
		for id, data := range files {
			if !saved[id] {
				if err := tx.Playground().Put(storage.PlaygroundFile+id, data); err != nil {
					return err
				}
				added = append(added, id)
			}
		}
		for id := range saved {
			if _, ok := files[id]; !ok {
				if err := tx.Playground().Delete(storage.PlaygroundFile + id); err != nil {
					return err
				}
				removed = append(removed, id)
			}
		}
		return tx.Playground().Put(storage.PlaygroundState, state)
	})
	if err != nil {
		return err
	}
	p.mu.Lock()
	for _, id := range added {
		p.saved[id] = true
	}
	for _, id := range removed {
		delete(p.saved, id)
	}
	p.lastState = state
	p.mu.Unlock()
	return nil
}

// saver saves the state shortly after every change until Shutdown.
func (p *Playground) saver() {
	defer close(p.saverDone)
	for {
		changed := p.fake.Changed()
		if err := p.save(); err != nil {
			p.mu.Lock()
			first := p.saveErr == nil
			p.saveErr = err
			p.mu.Unlock()
			if first {
				p.log.Error("saving the playground failed", "err", err)
			}
		}
		select {
		case <-p.done:
			return
		case <-changed:
		}
		select {
		case <-p.done:
			return
		case <-time.After(p.opts.SaveDelay):
		}
	}
}

package ir

// PayloadMeta is one entry of a payload config
// (data/weights/<model>_weights_config.json and its constants twin): the
// stored file that holds an FQN's data and, for a raw tensor, how to view
// it.
type PayloadMeta struct {
	PathName   string
	IsParam    bool
	UsePickle  bool
	TensorMeta *TensorMeta
}

// DecodePayloadConfig reads a payload config ({"config": {FQN: meta}}),
// with the checks and limits DecodeProgram applies.
func DecodePayloadConfig(data []byte) (map[string]PayloadMeta, error) {
	d := newDecoder(data)
	var out map[string]PayloadMeta
	err := d.whole(func() {
		if !d.openObject(false) {
			return
		}
		for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
			if string(key) != "config" {
				d.skip()
				continue
			}
			out = decodeTable(d, value((*decoder).payloadMeta))
			d.wrapName("config")
		}
	})
	return out, err
}

func (d *decoder) payloadMeta(m *PayloadMeta) {
	if !d.openObject(true) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "path_name":
			m.PathName = d.name()
		case "is_param":
			m.IsParam = d.bool()
		case "use_pickle":
			m.UsePickle = d.bool()
		case "tensor_meta":
			m.TensorMeta = nil
			if !d.null() {
				m.TensorMeta = new(TensorMeta)
				d.tensorMeta(m.TensorMeta)
			}
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
}

// EncodePayloadConfig writes a payload config as PyTorch does.
func EncodePayloadConfig(cfg map[string]PayloadMeta) ([]byte, error) {
	e := &encoder{}
	e.raw(`{"config": `)
	encodeMap(e, cfg, func(m PayloadMeta) {
		e.raw(`{"path_name": `)
		e.str(m.PathName)
		e.raw(`, "is_param": `)
		e.bool(m.IsParam)
		e.raw(`, "use_pickle": `)
		e.bool(m.UsePickle)
		e.raw(`, "tensor_meta": `)
		if m.TensorMeta == nil {
			e.raw("null")
		} else {
			e.tensorMeta(m.TensorMeta)
		}
		e.byte('}')
	})
	e.byte('}')
	return e.buf, e.err
}

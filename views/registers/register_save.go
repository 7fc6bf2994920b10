package registers

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/ui"
)

// saveXML asks where to save a register's XML as received: the one read
// (d) or, from the list, read for the purpose.
func (rp *registerPane) saveXML(tr backend.Transfer, d *registerData) tea.Cmd {
	name := tr.RegisterID
	if d != nil && d.reg.Number != "" {
		name = d.reg.Number
	}
	spec := ui.SaveSpec{
		Title:       "Save register " + cleanName(name),
		DefaultPath: ui.SafeFileName("register-"+name+".xml", "register.xml"),
	}
	if d != nil && len(d.reg.Raw) > 0 {
		raw := d.reg.Raw
		spec.What = "the XML as received, " + ui.HumanBytes(int64(len(raw)))
		spec.Data = func(context.Context) ([]byte, error) { return raw, nil }
	} else {
		src, id := rp.src, tr.RegisterID
		spec.What = "the XML as received (it is read first)"
		spec.Data = func(ctx context.Context) ([]byte, error) {
			reg, err := src.GetRegister(ctx, id)
			if len(reg.Raw) > 0 {
				return reg.Raw, nil // saved as received, even when it cannot be read
			}
			return nil, err
		}
	}
	return rp.dialogs.Open(ui.NewSave(spec, rp.km, rp.theme))
}

// saveCSV asks where to save the operations as CSV.
func (rp *registerPane) saveCSV() tea.Cmd {
	d := rp.data
	if d == nil {
		return nil
	}
	name := d.reg.Number
	if name == "" {
		name = rp.transfer.RegisterID
	}
	reg := d.reg
	spec := ui.SaveSpec{
		Title:       "Save the operations of register " + cleanName(name),
		What:        "the operations as CSV (" + money.Count(len(reg.Operations)) + " rows, amounts exact, times UTC)",
		DefaultPath: ui.SafeFileName("register-"+name+".csv", "register.csv"),
		Data:        func(context.Context) ([]byte, error) { return operationsCSV(reg), nil },
	}
	return rp.dialogs.Open(ui.NewSave(spec, rp.km, rp.theme))
}

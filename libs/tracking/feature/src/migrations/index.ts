import { Tracking1732000000300 } from './1732000000300-tracking';
import { RastreiosLz41732000000310 } from './1732000000310-rastreios-lz4';
import { RastreiosSemEstado1732000000320 } from './1732000000320-rastreios-sem-estado';
import { RastreiosArmazenamento1732000000330 } from './1732000000330-rastreios-armazenamento';
import { RastreiosEstadoRemovido1732000000340 } from './1732000000340-rastreios-estado-removido';

/** The tracking schema's migrations, oldest first. */
export const trackingMigrations = [Tracking1732000000300, RastreiosLz41732000000310, RastreiosSemEstado1732000000320, RastreiosArmazenamento1732000000330, RastreiosEstadoRemovido1732000000340];
